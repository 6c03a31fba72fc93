# Exit block before the loop body: warning on stderr, correct results.
X = list(range(1, 41))
# the body runs (x % 5) + 1 times: acc = x ** ((x % 5) + 1)
global_size = (len(X),); local_size = (8,)
stderr = ["warning", "before its dominator"]
args = [In("uint", X), Out("uint", len(X), expect=[pow(x, x % 5 + 1, 1 << 32) for x in X])]
