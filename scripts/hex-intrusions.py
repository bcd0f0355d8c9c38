#!/usr/bin/env python3
# Writes the ten Hex bridge intrusions of tests/it/robot_hex_bridges.rs (INTRUSIONS): random Black
# chains from top to bottom through solid steps and bridges, a White stone in one bridge on rows 3 to 9,
# White's other stones at least three steps from every Black stone; kept when the answer (the bridge's
# other cell) is the only move after which Black is joined for sure (the same check as the test's
# `joined_for_sure`). Run: python3 scripts/hex-intrusions.py
import random
N=11
T=[(1,0),(-1,0),(0,1),(0,-1),(1,-1),(-1,1)]
def name(c,r): return "abcdefghijk"[c-1]+str(r)
def vc(black,white):
    bs=set(black); ws=set(white)
    def empty(c): return 1<=c[0]<=N and 1<=c[1]<=N and c not in bs and c not in ws
    def link(a,b):
        d=(b[0]-a[0],b[1]-a[1])
        if d in T: return []
        sh=[(a[0]+x,a[1]+y) for x,y in T if (b[0]-a[0]-x,b[1]-a[1]-y) in T and empty((a[0]+x,a[1]+y))]
        return sh if len(sh)==2 else None
    def edge(s,row,beyond,other):
        if s[1]==row: return []
        if s[1]==row+beyond and empty((s[0],row)) and empty((s[0]+other,row)): return [(s[0],row),(s[0]+other,row)]
        return None
    def walk(at,used,seen):
        b=edge(black[at],11,-1,-1)
        if b is not None and not (set(b)&used): return True
        for nx in range(len(black)):
            if nx in seen: continue
            c=link(black[at],black[nx])
            if c is None or set(c)&used: continue
            seen.add(nx)
            if walk(nx,used|set(c),seen): return True
            seen.discard(nx)
        return False
    for s in range(len(black)):
        e=edge(black[s],1,1,1)
        if e is None: continue
        if walk(s,set(e),{s}): return True
    return False
def gen(seed):
    rnd=random.Random(seed)
    c=rnd.randint(3,9); r=2
    chain=[(c,r)]; bridges=[((c,1),(c+1,1))]
    while r<10:
        opts=[]
        if r+1<=10 and c+1<=N: opts+=['D1']*3
        if r+2<=10 and c-1>=1: opts+=['D2']*3
        if c-1>=1: opts+=['S2']
        opts+=['S1']
        k=rnd.choice(opts)
        if k=='D1': bridges.append(((c+1,r),(c,r+1))); c,r=c+1,r+1
        elif k=='D2': bridges.append(((c,r+1),(c-1,r+1))); c,r=c-1,r+2
        elif k=='S1': r=r+1
        else: c,r=c-1,r+1
        chain.append((c,r))
    if c-1<1: return None
    bridges.append(((c,11),(c-1,11)))
    inner=[b for b in bridges[1:-1] if all(3<=x[1]<=9 for x in b)]
    if len(bridges)<5 or not inner: return None
    carrier=set(x for b in bridges for x in b)
    b=rnd.choice(inner); side=rnd.randint(0,1)
    intr, ans = b[side], b[1-side]
    free=[(x,y) for x in range(1,N+1) for y in range(1,N+1) if (x,y) not in chain and (x,y) not in carrier]
    far=[p for p in free if all(abs(p[0]-q[0])+abs(p[1]-q[1])>=3 for q in chain)]
    rnd.shuffle(far)
    white=[intr]+far[:len(chain)-1]
    rnd.shuffle(white)
    assert vc(chain,[w for w in white if w!=intr])
    if vc(chain,white): return None
    empties=[(x,y) for x in range(1,N+1) for y in range(1,N+1) if (x,y) not in chain and (x,y) not in white]
    saving=[m for m in empties if vc(chain+[m],white)]
    if saving!=[ans]: return None
    return chain,white,ans,len(bridges)
out=[]; s=0
while len(out)<10:
    g=gen(s); s+=1
    if g: out.append((s-1,g))
for s,(chain,white,ans,nb) in out:
    print("    (\n        &[\"" + "\", \"".join(name(*p) for p in chain) + "\"],\n        &[\"" + "\", \"".join(name(*p) for p in white) + "\"],\n        \"" + name(*ans) + "\",\n    ),")
