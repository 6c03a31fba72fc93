# C division (toward zero) and remainder (sign of the dividend) from the
# harness's cdiv / crem; a lane whose divisor is 0 (or int's MIN / -1)
# faults and gets 0 (docs/semantics.md).
n = 64
MIN = -2**31
def ref(A, B, Z):
    r, ru, rl, rs, rc = [], [], [], [], []
    for k, (a, b, z) in enumerate(zip(A, B, Z)):
        bad = b == 0 or (a == MIN and b == -1)
        r += [0 if bad else wrap("int", cdiv(a, b)), 0 if b == 0 else crem(a, b) if b != -1 else 0,
              (0 if (z == 0 or (a == MIN and z == -1)) else wrap("int", cdiv(a, z))) if k & 1 else 0]
        ua, ub = a & 0xffffffff, b & 0xffffffff
        ru += [0 if ub == 0 else ua // ub, 0 if ub == 0 else ua % ub]
        la, lb = a * 3 + 1, b
        rl += [0 if lb == 0 else cdiv(la, lb), 0 if lb == 0 else crem(la, lb)]
        sa, sb = wrap("short", a), wrap("short", b)
        rs.append(0 if sb == 0 else wrap("short", cdiv(sa, sb)))
        ca, cb = a & 0xff, b & 0xff
        rc.append(0 if cb == 0 else ca // cb)
    return r, ru, rl, rs, rc
def case(name, A, B, Z, faults):
    r, ru, rl, rs, rc = ref(A, B, Z)
    c = dict(name=name, kernel="int_div", global_size=(n,), local_size=(16,),
             args=[In("int", A), In("int", B), In("int", Z), Out("int", 3 * n, expect=r), Out("uint", 2 * n, expect=ru),
                   Out("long", 2 * n, expect=rl), Out("short", n, expect=rs), Out("uchar", n, expect=rc)])
    if faults:
        c.update(exit=1, diag=["division by zero"])
    return c
A = [MIN, MIN, 2**31 - 1, -7, 7, -7, 7, 0, 100, -100, 65536 * 3 + 5, 255, 256, -1, 1, 12345] + \
    rand_ints(n - 16, -2**31, 2**31 - 1, seed=31)
B = [-1, 1, -1, 2, -2, -2, 2, 5, 7, -7, 65536 + 2, 17, 257, -1, 3, -100] + rand_ints(n - 16, -70000, 70000, seed=32)
B = [b if b & 0xff and (b & 0xffff) else b + 1 for b in B]       # no zero divisor in any width
B[0] = 3                                                          # int: MIN / 3 (MIN / -1 faults: case 2)
Z = [0 if k % 2 == 0 else v or 1 for k, v in enumerate(rand_ints(n, -1000, 1000, seed=33))]
B2 = list(B); B2[5] = 0; B2[20] = 0; B2[1] = -1; A2 = list(A); A2[1] = MIN   # lanes 5, 20: / 0; lane 1: MIN / -1
V = rand_ints(n, -10**6, 10**6, seed=34); W = [w or 1 for w in rand_ints(n, -300, 300, seed=35)]
CASES = [case("clean", A, B, Z, False), case("faults", A2, B2, Z, True),
         dict(name="vec", kernel="int_div4", global_size=(n // 4,), local_size=(16,),
              args=[In("int", V), In("int", W), Out("int", n, expect=[cdiv(v, w) for v, w in zip(V, W)])])]
