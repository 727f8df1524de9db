// Placeholder; the fuzz driver is being written.
print("creative-fuzz: build with make fuzz")
