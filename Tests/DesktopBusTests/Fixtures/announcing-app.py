#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A GTK 3 application that announces through ATK, for DesktopBusTests. Run with
# GTK_MODULES=gail:atk-bridge on an X display, with the session bus at-spi-bus-launcher serves.
#
# Once its window is shown it owns org.announced.TestApp on the session bus (then prints `ready`), whose method
# Announce(s text, i politeness) announces `text`:
#   politeness < 0: the way a GTK 3 application does, ATK's `announcement` signal on a button's
#     accessible, which the atk-bridge sends as org.a11y.atspi.Event.Object.Announcement
#     (at-spi2-core 2.46 sends detail1 = 0, no politeness);
#   politeness >= 0: the same D-Bus signal emitted by this script on the accessibility bus with
#     detail1 = politeness, which ATK 2.46 cannot send (at-spi2-core 2.49.90 does).
# AnnounceMany(s text, i count, i politeness) announces `text 1` ... `text COUNT` the same way, as
# fast as it can (a flood).
# Before emitting, it runs GTK's pending events, so that the bridge has read the registry's
# EventListenerRegistered for a listener that registered before Announce was called.
#
# An argument NAME makes it another application: program name NAME (its accessible's name) and
# bus name org.announced.TestApp.NAME; without one it is `announcing-app` on org.announced.TestApp.
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

NAME = sys.argv[1] if len(sys.argv) > 1 else None
GLib.set_prgname(NAME or "announcing-app")
GLib.set_application_name("Announcing App")

INTERFACE = """
<node>
  <interface name="org.announced.TestApp">
    <method name="Announce">
      <arg direction="in" name="text" type="s"/>
      <arg direction="in" name="politeness" type="i"/>
    </method>
    <method name="AnnounceMany">
      <arg direction="in" name="text" type="s"/>
      <arg direction="in" name="count" type="i"/>
      <arg direction="in" name="politeness" type="i"/>
    </method>
  </interface>
</node>
"""

window = Gtk.Window(title="Announcing App")
button = Gtk.Button(label="Download")
window.add(button)
window.show_all()
session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
address = session.call_sync(
    "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None, GLib.VariantType("(s)"),
    Gio.DBusCallFlags.NONE, -1, None,
).unpack()[0]
accessibility_bus = Gio.DBusConnection.new_for_address_sync(
    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None
)


def announce(text, politeness):
    if politeness < 0:
        button.get_accessible().emit("announcement", text)
    else:
        accessibility_bus.emit_signal(
            None, "/org/a11y/atspi/accessible/root", "org.a11y.atspi.Event.Object", "Announcement",
            GLib.Variant("(siiva{sv})", ("", politeness, 0, GLib.Variant("s", text), {})),
        )


def on_call(connection, sender, path, interface, method, parameters, invocation):
    while Gtk.events_pending():
        Gtk.main_iteration()
    if method == "AnnounceMany":
        text, count, politeness = parameters.unpack()
        for number in range(1, count + 1):
            announce(f"{text} {number}", politeness)
    else:
        text, politeness = parameters.unpack()
        announce(text, politeness)
    accessibility_bus.flush_sync(None)
    invocation.return_value(None)


BUS_NAME = "org.announced.TestApp" + ("." + NAME if NAME else "")
session.register_object("/org/announced/TestApp", Gio.DBusNodeInfo.new_for_xml(INTERFACE).interfaces[0], on_call, None, None)
Gio.bus_own_name_on_connection(
    session, BUS_NAME, Gio.BusNameOwnerFlags.NONE, lambda connection, name: print("ready", flush=True), None
)
Gtk.main()
