std = "CL2.0"
n = 128
IN = rand_ints(n, -1000, 1000, seed=65)
def seen_ok(got):
    got = [int(g) for g in got]
    winners = [i for i, g in enumerate(got) if g == -1]
    if len(winners) != 1: return "%d winners of compare_exchange" % len(winners)
    w = winners[0] + 100
    return None if all(g in (-1, w) for g in got) else "losers did not all see %d" % w
def acc_ok(got):
    return None if int(got[2]) - 100 in range(n) else "acc[2]=%r" % got[2]
global_size = (n,); local_size = (32,)
args = [In("int", IN), InOut("int", [0, -2**31, 0, 0, 0], expect=[sum(IN), max(IN), None, -n, 77], check=acc_ok),
        Out("uint", n // 32, expect=[0xFFFFFFFF] * (n // 32)), Out("int", n, check=seen_ok)]
