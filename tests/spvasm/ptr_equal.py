# p = a + i for odd i, else b + i; out = (p == a + i) + 2 * (p != b + (i & 3)).
# a and b are distinct buffers, so p == b + (i & 3) only for even i < 4.
n = 32
out = []
for i in range(n):
    odd = i & 1
    eq = 1 if odd else 0
    ne = 0 if (not odd and i == (i & 3)) else 1
    out.append(eq + 2 * ne)
CASES = [dict(global_size=(n,), local_size=(16,),
              args=[In("uint", [0] * n), In("uint", [0] * n), Out("uint", n, expect=out)])]
