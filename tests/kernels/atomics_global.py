from functools import reduce
n = 256
IN = rand_ints(n, -10**6, 10**6, seed=62)
init = [0, 0, 2**31 - 1, -2**31, 0, -1, 0, 0, 0, 0, 0]
acc = [wrap("int", sum(IN)), wrap("int", -sum(IN)), min(IN), max(IN), -1,
       wrap("int", ~0xFFFF), reduce(lambda a, b: a ^ b, IN, 0), n,
       wrap("int", max(v & 0xFFFFFFFF for v in IN)), None, None]
def tickets_ok(got):
    return None if sorted(int(g) for g in got) == list(range(n)) else "atomic_inc tickets are not a permutation of 0..n-1"
def cmpxchg_ok(got):
    a, b = int(got[9]), int(got[10])
    if a < 1 or a > n or (a - 1) % 2 != 0: return "cmpxchg winner %d is not an even id+1" % a
    if b < 1 or b > n or (b - 1) % 2 != 1: return "cmpxchg winner %d is not an odd id+1" % b
    return None
global_size = (n,); local_size = (64,)
args = [In("int", IN), InOut("int", init, expect=acc, check=cmpxchg_ok), Out("uint", n, check=tickets_ok)]
