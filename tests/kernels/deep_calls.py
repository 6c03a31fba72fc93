def f9(x): return x * 3 + 1 if x & 1 else cdiv(x, 2)
def f8(x): return f9(x) + 1
def f7(x, y): return f8(x) ^ y
def f5(v): return f7(v[0], v[1]) - f7(v[1], v[0])
def f3(x): return f5((x, x + 1)) * 2
def f2(x): return f3(x) << 20
def f1(x): return f2(x) + f2(x + 7)
def f0(x): return -f1(-x) if x < 0 else f1(x)
n = 32
IN = rand_ints(n, -10000, 10000, seed=34)
global_size = (n,); local_size = (8,)
args = [In("int", IN), Out("long", n, expect=[f0(x) for x in IN])]
