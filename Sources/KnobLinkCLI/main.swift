// Placeholder until the command line lands.
print("knoblink")
