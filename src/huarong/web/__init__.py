"""The web app: the HTTP API (:mod:`huarong.web.app`) and the pages it serves from ``static/``
(native ES modules, no bundler)."""
