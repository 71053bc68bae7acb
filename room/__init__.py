"""Venue-side services that speak only MQTT to the tables: the broadcast relay and overlay
page today; the floor console, clock and tournament server belong here too."""
