#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A stand-in for at-spi-bus-launcher's org.a11y.Status on a private session bus, for
# ScreenReaderStatusTests' ordering test. It owns org.a11y.Bus, and ScreenReaderEnabled reads true.
# Right after the first read it reports the property invalidated (no value: a watcher reads it
# again), then changed to false, while a read still says true: a watcher that reads the
# invalidated value again must deliver true, then false, in the order the two were reported.
from gi.repository import Gio, GLib

INTERFACE = """<node><interface name="org.a11y.Status">
  <property name="ScreenReaderEnabled" type="b" access="read"/>
</interface></node>"""
reads = 0


def report(connection, changed, invalidated):
    connection.emit_signal(
        None, "/org/a11y/bus", "org.freedesktop.DBus.Properties", "PropertiesChanged",
        GLib.Variant("(sa{sv}as)", ("org.a11y.Status", changed, invalidated)),
    )


def report_both(connection):
    report(connection, {}, ["ScreenReaderEnabled"])
    report(connection, {"ScreenReaderEnabled": GLib.Variant("b", False)}, [])
    connection.flush_sync(None)
    return False


def get_property(connection, sender, path, interface, name):
    global reads
    reads += 1
    if reads == 1:
        # After the reply to this read has gone out.
        GLib.idle_add(report_both, connection)
    return GLib.Variant("b", True)


session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
session.register_object(
    "/org/a11y/bus", Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0], None, get_property, None
)
Gio.bus_own_name_on_connection(
    session, "org.a11y.Bus", Gio.BusNameOwnerFlags.NONE, lambda connection, name: print("ready", flush=True), None
)
GLib.MainLoop().run()
