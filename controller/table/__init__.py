"""L3, the live table: ``TableSession`` turns chips, cards, console words and room commands
into outputs, over the engine, interpretation and irregularities. Pure: no clock, no I/O.

``session.py`` is the entry; ``hands.py`` routes one hand; ``console.py``, ``commands.py``
and ``floor.py`` take the dealer's, the room's and the floor's inputs; ``state.py``,
``inputs.py`` and ``outputs.py`` are its data.
"""
