"""L2, hand histories: PHH files read and written, and hands replayed through the engine.

Functions of the engine's record only (no session, no journal, no I/O beyond the text
given), so the room's hand archive can use them without loading the live table.
"""
