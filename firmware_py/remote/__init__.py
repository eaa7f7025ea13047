"""Playing someone far away: the host side (`host`), the joining board (`client`), the messages
between them (`protocol`) and the agreed line of plies both boards show (`line`).

The host's game store is the truth. The other side's plies reach a board as *shown* plies,
exactly like the computer's: the LEDs light them and the controller records only that ply on
that side's turns, once the local player has carried it out.
"""
