from functools import reduce
n, L = 128, 32
IN = rand_ints(n, -2**60, 2**60, seed=64)
acc = [wrap("long", sum(IN)), min(IN), max(IN), reduce(lambda a, b: a ^ b, IN, 0), None]
def odd_winner(got):
    v = int(got[4])
    return None if v in [x | 1 for x in IN] else "cmpxchg result %d is not some input | 1" % v
go = []
for g in range(n // L):
    part = IN[g*L:(g+1)*L]
    go += [sum(v >> 3 for v in part), max(part)]
global_size = (n,); local_size = (L,)
args = [In("long", IN), InOut("long", [0, 2**63 - 1, -2**63, 0, 0], expect=acc, check=odd_winner),
        Out("long", 2 * n // L, expect=go)]
