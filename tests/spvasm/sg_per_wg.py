# SubgroupsPerWorkgroup 3 (docs/semantics.md, "NDRange and local size"): the
# chosen work-group is 3*S work-items; an explicit local size giving another
# subgroup count is refused with exit 2.
def case(S, n_groups):
    L = 3 * S
    n = L * n_groups
    return dict(name="s%d" % S, cli=True, global_size=(n,), local_size=None,
                subgroup_sizes=[S], args=[Out("uint", 2 * n, expect=[L, 3] * n)])
CASES = [case(16, 2), case(8, 3), case(5, 2),
         dict(name="conflict", cli=True, global_size=(128,), local_size=(64,),
              subgroup_sizes=[16], args=[Out("uint", 256)], exit=2,
              error="requires 3 subgroups per work-group")]
