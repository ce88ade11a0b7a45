"""Risk Legacy: the game on the classic board, and the campaign that carries its world."""
