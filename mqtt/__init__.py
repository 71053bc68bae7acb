"""The MQTT bridge: the table's public voice to clocks, tournament servers and overlays.

Publishes retained table state, a sequence-numbered event stream with every ruling,
birth/death status and a secured hole-card subtree; receives clock levels and director
commands. It depends only on the public state and event schema, never on engine internals.
"""
