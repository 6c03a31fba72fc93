# 64 work-items, work-groups of 32, subgroups of 16.  x[i] = 7i + 1;
# blk[j] = 1000 + j.  First case: k[i] = 3 everywhere: broadcast gives the
# subgroup's lane 3, rotate lane (l + 3) mod 16, the block read lane l of
# blk + 48.  Second case: k[i] = i mod 4 in the second subgroup only
# (non-uniform there: UB, reported; the outputs are then the UB values the
# doc fixes, not checked here).
std = "CL2.0"
N, L, S = 64, 32, 16
X = [7 * i + 1 for i in range(N)]
BLK = [1000 + j for j in range(256)]

def case(k):
    out = []
    for i in range(N):
        b, l = i - i % S, i % S
        out += [X[b + k[i]], X[b + (l + k[i]) % S], BLK[16 * k[i] + l], k[i]]
    return out

K0 = [3] * N
K1 = [3] * 16 + [i % 4 for i in range(16, 32)] + [3] * 32
CASES = [dict(global_size=(N,), local_size=(L,), subgroup_sizes=[16], opts=["-O0", "-O2"],
              args=[In("int", X), In("uint", K0), In("uint", BLK), Out("int", 4 * N, expect=case(K0))]),
         dict(global_size=(N,), local_size=(L,), subgroup_sizes=[16], opts=["-O0", "-O2"], diag=["non-uniform"],
              args=[In("int", X), In("uint", K1), In("uint", BLK), Out("int", 4 * N, check=lambda got: None)])]
