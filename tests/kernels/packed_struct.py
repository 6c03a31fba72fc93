# Each record: c, i, s, f at byte offsets 0, 1, 5, 7 (11 bytes, no padding).
import struct as _s
n = 4
recs = [(i + 1, 1000 * i - 7, 3 - i, 2.0 * i + 0.25) for i in range(n)]
data = b"".join(_s.pack("<bihf", *r) for r in recs)
after = b"".join(_s.pack("<bihf", r[0], 100 * k, r[2], 0.5) for k, r in enumerate(recs))
expect = [r[1] + 1 + r[2] + int(r[3]) + r[0] for r in recs]
global_size = (n,); local_size = (n,)
args = [InOut("uchar", list(data), expect=list(after)), Out("int", n, expect=expect)]
