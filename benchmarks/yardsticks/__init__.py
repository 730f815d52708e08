"""Hand-written engines used only as speed yardsticks by the benchmarks; never by regle itself."""
