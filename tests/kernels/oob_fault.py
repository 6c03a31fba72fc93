n = 32
global_size = (n,); local_size = (8,)
exit = 1
diag = ["out-of-bounds"]
args = [In("int", list(range(8))), Out("int", n, check=lambda got: None)]
