"""Training: quiz questions and banks, the generator, the FSRS schedule, progress, the bots."""
