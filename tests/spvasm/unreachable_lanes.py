# Odd lanes reach OpUnreachable: fault, exit 1; even lanes store x + 5.
X = [0, 2, 3, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28]
global_size = (16,); local_size = (16,)
exit = 1
diag = ["unreachable"]
args = [In("uint", X), Out("uint", 16, expect=[None if x & 1 else x + 5 for x in X])]
