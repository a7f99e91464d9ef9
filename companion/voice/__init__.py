"""The table's voice: short spoken announcements of what a spectator sees (`announcer`), in the
table's language (`words`), through the Pi's speaker (`speaker`) and the table screen."""
