# per-flow FCT ratio vs Ideal, by the flow's start phase in the 100 us controller period
import csv,sys,collections
f=sys.argv[1]; period=float(sys.argv[2]) if len(sys.argv)>2 else 100.0; apply_at=float(sys.argv[3]) if len(sys.argv)>3 else 10.0
runs=collections.defaultdict(dict)
with open(f) as fh:
    r=csv.DictReader(fh)
    for row in r:
        if not row['fct_us']: continue
        runs[row['run']][row['flow']]=(float(row['start_us']),float(row['fct_us']),int(row['size_bytes']))
idx=sorted(runs,key=int); base=runs[idx[0]]
print('runs',idx,'(first = reference)')
nb=10
for i in idx[1:]:
    s=[0.0]*nb; sb=[0.0]*nb; n=[0]*nb
    for fl,(st,fct,sz) in runs[i].items():
        if fl not in base or st<500: continue
        ph=((st-apply_at)%period)/period
        b=int(ph*nb)
        s[b]+=sz/fct; sb[b]+=sz/base[fl][1]; n[b]+=1
    print('run',i,' '.join(f"{100*s[b]/sb[b]:.1f}" for b in range(nb)), 'n=',n)
