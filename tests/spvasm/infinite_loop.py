# Lanes with x != 0 loop forever; --step-limit stops their subgroup with a
# fault (exit 1, no hang) and stops the launch (docs: "the launch was
# stopped").  With one lane per subgroup the lanes before the looping one finish;
# with 4 lanes per subgroup the finished lanes wait at the loop's exit for
# the looping ones, so their store never happens (not checked).
X = [0, 0, 0, 7]
global_size = (4,); local_size = (4,)
run_flags = ["--step-limit", "100000"]
exit = 1
diag = ["limit"]
CASES = [dict(name="sg1", subgroup_sizes=[1], args=[In("uint", X), Out("uint", 4, expect=[5, 5, 5, None])]),
         dict(name="sg4", subgroup_sizes=[4], args=[In("uint", X), Out("uint", 4, expect=[None] * 4)])]
