# Odd v: out = 3v, flag = 1; even v: out = v + 100, flag = 2.  The values
# mix odd and even in every subgroup, and a work-group of all-odd and one
# of all-even values take the then-block with every lane and with none.
n = 96
IN = [(37 * k + 11) % 97 for k in range(64)] + [2 * k + 1 for k in range(16)] + [2 * k for k in range(16)]
out = [3 * v if v & 1 else v + 100 for v in IN]
flag = [1 if v & 1 else 2 for v in IN]
CASES = [dict(global_size=(n,), local_size=(16,), subgroup_sizes=[None, 8],
              args=[In("uint", IN), Out("uint", n, expect=out), Out("uint", n, expect=flag)])]
