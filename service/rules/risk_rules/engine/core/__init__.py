"""Parts shared by every variant: the generator, dice, decks, graphs and the interface."""
