# in[i] = 10 + i.  baf_ok: 3 in[i].  baf_write_ro: out = in + 1, the write
# to the ro buffer is dropped (in keeps its values).  baf_read_wo: the read of
# out yields 0 (a faulting read), so out = 0 + 5 (-O0 reloads out[i]; -O2
# keeps in[i] in a register and never reads out: no fault, out = in + 5).
# Oclgrind reports the same two faults but performs the accesses (its
# write_ro leaves in = 0): spirv-sgrun suppresses every faulting access.
n = 8
xs = [10 + i for i in range(n)]
CASES = [
    dict(kernel="baf_ok", args=[In("int", xs, flags="ro"), Out("int", n, expect=[3 * x for x in xs], flags="wo")],
         jit_fallback="write-only"),
    dict(kernel="baf_write_ro", exit=1, diag=["write to read-only memory"],
         args=[InOut("int", xs, expect=xs, flags="ro"), Out("int", n, expect=[x + 1 for x in xs])]),
    dict(kernel="baf_read_wo", exit=1, diag=["read from write-only memory"], opts=["-O0"],
         jit_fallback="write-only",
         args=[In("int", xs), Out("int", n, expect=[5] * n, flags="wo")]),
]
for c in CASES:
    c["name"] = c["kernel"][4:]
global_size = (n,); local_size = (4,)
