# args: spin.cl --global 16 --local 16 --subgroup-size 8 --arg n=80000 --arg out=zero:16
# reverse-next when the line before began before every checkpoint: subgroup
# 1 runs 7 steps (to line 3), then subgroup 0 runs 150,000 (two
# checkpoints); reverse-next in subgroup 1 asks the latest checkpoint, which
# hands the search on to the one before, and that one to the launch's start.
# The answer is where subgroup 1 entered line 1: after its 6th step, the
# launch's step 6 (it ran alone until then).
# expect: ^\(sgdb\) step 5\n.*\] spin at word \d+$
# expect: ^\(sgdb\) step 1\n.*\] spin at spin\.cl:1$
# expect: ^\(sgdb\) step 1\n.*\] spin at spin\.cl:3$
# expect: ^\(sgdb\) reverse-next\n\[back to step 6 of the launch; replayed in \d+ ms\]\n\[work-group \(0,0,0\) subgroup 1, lanes 0-7\] spin at spin\.cl:1$
# subgroup 0 had not begun at step 6
# expect: ^\(sgdb\) subgroup 0\n.*\] spin at word \d+\n=> %\d+ = OpFunctionCall
# and line 3 is one step on again
# expect: ^\(sgdb\) step 1\n.*\] spin at spin\.cl:3$
subgroup 1
step 5
step 1
step 1
subgroup 0
step 150000
subgroup 1
reverse-next
subgroup 0
subgroup 1
step 1
