std = "CL2.0"
G, L = 100, 16
IN = rand_ints(G, -1000, 1000, seed=70)
ng = (G + L - 1) // L
info = []
for g in range(G):
    size = L if g // L < G // L else G % L
    info += [size, L, ng]
sums = [sum(IN[k*L:(k+1)*L]) for k in range(ng)]
global_size = (G,); local_size = (L,)
args = [In("int", IN), Out("int", 3 * G, expect=info), Out("int", ng, expect=sums)]
