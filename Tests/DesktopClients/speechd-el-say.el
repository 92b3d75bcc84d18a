;;; speechd-el-say.el --- say one text with speechd-el  -*- lexical-binding: t -*-
;; SPDX-License-Identifier: GPL-3.0-or-later

;; For announced's desktop-client tests: emacs --batch --no-site-file
;; -L /usr/share/emacs/site-lisp/speechd-el -l speechd-el-say.el TEXT
;; speechd-el opens $SPEECHD_SOCK (a Unix socket), says TEXT with speechd-say-text, closes the
;; connection and prints "said". It would run speech-dispatcher --spawn on its own: autospawn off.

(setq speechd-autospawn nil)
(require 'speechd)
(let ((text (car command-line-args-left)))
  (setq command-line-args-left nil)
  (speechd-say-text text)
  (speechd-close-all)
  (princ "said\n"))
