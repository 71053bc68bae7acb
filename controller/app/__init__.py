"""L4, the process: every I/O of the controller (journal, config files, sealing, MQTT, serial).

``table_app.py`` feeds the live table and publishes what it says; ``runtime.py`` wires the
serial bus, the console and the MQTT bridge around it. The only controller package that
imports ``hardware`` and ``mqtt``.
"""
