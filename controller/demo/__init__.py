"""L5, ``pokertable demo``: a whole simulated room (reader nodes, tables, broker, room services)
in one process, composed like the CLI from every layer below. Nothing else imports it.
"""
