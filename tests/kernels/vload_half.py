from fractions import Fraction
n = 32
F = rand_floats(n, -70000, 70000, seed=57)
F[:8] = [1.0009765625 + 2**-12, -(1 + 2**-11), 65520.0, 65519.0, 1e-8, -1e-8, 2**-24 * 1.5, 100000.0]
H = [f16_bits(v) for v in rand_floats(64 + 4 * n, -1000, 1000, seed=58)]
H[0], H[1], H[2] = 0x7C00, 0x0001, 0xFC00      # inf, smallest subnormal, -inf
def half_round(x, mode):
    """float -> half bits with the given rounding mode (exact arithmetic)."""
    if x == 0:
        return 0x8000 if math.copysign(1, x) < 0 else 0
    neg = x < 0
    q = abs(Fraction(x))
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q: e -= 1
    e = max(e, -14)
    ulp = Fraction(2) ** (e - 10)
    k = q / ulp
    lo = k.numerator // k.denominator
    rem = k - lo
    up = {"rte": rem > Fraction(1, 2) or (rem == Fraction(1, 2) and lo % 2 == 1),
          "rtz": False, "rtp": rem > 0 and not neg, "rtn": rem > 0 and neg}[mode]
    v = (lo + (1 if up else 0)) * ulp
    if v > 65504:
        if mode == "rte" or (mode == "rtp" and not neg) or (mode == "rtn" and neg):
            bits = 0x7C00
        else:
            bits = 0x7BFF
    else:
        bits = f16_bits(float(v))
    return bits | (0x8000 if neg else 0)
rf, rh = [], []
for i in range(n):
    rf += [f16_from_bits(H[i])] + [f16_from_bits(b) for b in H[64+4*i:64+4*i+4]]
    x = F[i]
    rh += [half_round(x, m) for m in ("rte", "rte", "rtz", "rtp", "rtn")]
global_size = (n,); local_size = (8,)
args = [In("float", F), In("ushort", H), Out("float", 5 * n, expect=rf), Out("ushort", 5 * n, expect=rh)]
