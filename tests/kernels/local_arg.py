G, L = 128, 32
IN = rand_ints(G, -100, 100, seed=71)
out = []
for g in range(G // L):
    acc = 0
    for v in IN[g*L:(g+1)*L]:
        acc += v
        out.append(acc)
global_size = (G,); local_size = (L,)
args = [In("int", IN), Out("int", G, expect=out), Local(2 * L * 4)]
