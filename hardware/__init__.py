"""Pi-side hardware: the serial bus master, the tag registry, the dealer console and the simulator.

This package turns frames from the reader nodes into domain events (chips arrived in a
zone, a card was seen, a node went down). It knows nothing about poker rules: the
controller decides what a pile of chips means.
"""
