"""The table as its own network: a Wi-Fi hotspot, the answers to phones' captive-portal probes,
and the printed card that lets a phone join by one scan.

This is an adapter of the operating system, outside the Table (architecture.md): nothing here
touches game state. `identity` names the network and keeps its password; `nmcli` is the only
place that speaks to NetworkManager; `hotspot` decides when the hotspot is up; `portal` answers
the probes while it is; `files` writes the dnsmasq and avahi files the system needs; `card`
draws the table card.
"""
