import json,sys
err,js=sys.argv[1],sys.argv[2]
L=[l for l in open(err) if l.startswith('H3DEBUGRT')]
runs=json.load(open(js))['runs']
def pct(h,p):
    c=0;t=sum(h)
    for i,x in enumerate(h):
        c+=x
        if c>=p*t: return i
for k in range(len(L)//2):
    rto=eval(L[2*k].split(' ',1)[1]); rtt=eval(L[2*k+1].split(' ',1)[1])
    n=sum(rtt); nt=sum(rto)
    mean=sum((i+0.5)*c for i,c in enumerate(rtt))/n
    var=sum(((i+0.5)-mean)**2*c for i,c in enumerate(rtt))/n
    print(f"run{k}: RTT samples n={n} mean={mean:.1f}us sd={var**.5:.1f} p10={pct(rtt,.1)} p50={pct(rtt,.5)} p90={pct(rtt,.9)} p99={pct(rtt,.99)} | timeouts={nt} RTO at timeout p10/p50/p90 = {pct(rto,.1)}/{pct(rto,.5)}/{pct(rto,.9)} us  rto-hist[:20]={rto[:20]}")
