# OpSwitch on an i2: spirv-val rejects OpTypeInt 2, spirv-sgrun warns and runs.
X = list(range(16)) + rand_ints(16, 0, 300, seed=9)
def f(x):
    if x > 99:
        return 99
    y = (x + 1) & 3
    return {0: x + 10, 1: x * 20, 2: 5}.get(y, (30 - x) & 0xFFFFFFFF)
n = len(X)
global_size = (n,); local_size = (16,)
stderr = ["warning", "OpTypeInt"]
args = [In("uint", X), Out("uint", n, expect=[f(x) for x in X])]
