# Signed and unsigned min / max from the definitions; xchg stores 3v and
# returns the old element.  Work-groups of 32, so the local results are per
# group of 32 lanes.
n = 1024
X = [0, -1, 7, -2**31, 2**31 - 1, 5, -5, 100] + rand_ints(n - 8, -10**9, 10**9, seed=121)
S0 = rand_ints(n, -10**9, 10**9, seed=122)
U0 = [v & 0xffffffff for v in rand_ints(n, -2**31, 2**31 - 1, seed=123)]
C0 = rand_ints(n, -1000, 1000, seed=124)
u = lambda v: v & 0xffffffff
old, smax, umin, xch = [], [], [], []
for i in range(n):
    old += [S0[i], wrap("int", U0[i]), C0[i]]
    smax.append(max(S0[i], X[i])); umin.append(min(U0[i], u(X[i]))); xch.append(wrap("int", 3 * X[i]))
SH = [0, 0, 0, 0xffffffff]
shared = [max(X + [0]), min(X + [0]), wrap("int", max([u(v) for v in X] + [0])), wrap("int", min(u(v) for v in X))]
L = [0, 0]
l64 = [max([v * 1000000007 for v in X] + [0]), min([v * 1000000007 for v in X] + [0])]
lres = []
for g in range(0, n, 32):
    lres += [max(X[g:g+32]), min(X[g:g+32])]
global_size = (n,); local_size = (32,)
args = [In("int", X), InOut("int", S0, expect=smax), InOut("uint", U0, expect=umin), InOut("int", C0, expect=xch),
        Out("int", 3 * n, expect=old), InOut("int", SH, expect=shared), InOut("long", L, expect=l64),
        Out("int", 2 * (n // 32), expect=lres)]
jobs_compare = [1, 2]
