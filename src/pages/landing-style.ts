// The landing page's stylesheet: inline in the page (no request before first paint on a slow
// network), allowed by its hash in the Content-Security-Policy. Mobile first, system fonts only.
// The first screen of a 390×844 phone holds the shop bar, the cover image, name, price, trust line
// and the order button (issue 23 §2): the image's height is capped by the viewport for that.
export const LANDING_CSS = `:root{--primary:#0a7d4f;--ink:#1d2330;--muted:#5b6475;--line:#c9cfd9;--bg:#f6f7f9;--err:#a4161a;--soft:#f1faf5}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
body.f-serif{font-family:Georgia,"Times New Roman",serif}body.f-rounded{font-family:ui-rounded,"SF Pro Rounded","Nunito",system-ui,sans-serif}body.f-mono{font-family:ui-monospace,Menlo,Consolas,monospace}
main{max-width:40rem;margin:0 auto;background:#fff;min-height:100vh}
section,.cr-box,.recap{padding:1.25rem 1rem}h1{font-size:1.45rem;line-height:1.2;margin:0 0 .25rem}h2{font-size:1.2rem;margin:0 0 .5rem}
img{max-width:100%;height:auto;border-radius:10px;display:block}picture{display:block}.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.5rem}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.shop{display:flex;align-items:center;justify-content:space-between;gap:.75rem;padding:.5rem 1rem;border-bottom:1px solid var(--line);min-height:3rem}
.shop-name{font-weight:700;line-height:1.25;overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
a.wa{display:inline-flex;align-items:center;gap:.35rem;background:#0b6b3a;color:#fff;border-radius:999px;padding:.4rem .8rem;font-weight:700;text-decoration:none;font-size:.95rem;white-space:nowrap;min-height:2.5rem}
.buy{padding:0 0 1rem}.buy img{width:100%;max-height:min(46vh,28rem);object-fit:contain;border-radius:0;background:#fff}.buy-text{padding:.6rem 1rem 0}
.pname{margin:0;color:var(--muted)}.price{margin:.35rem 0;display:flex;flex-wrap:wrap;align-items:baseline;gap:.1rem .5rem}.price strong{font-size:1.7rem;color:var(--primary)}
.price s{color:var(--muted)}.off{background:var(--err);color:#fff;border-radius:6px;padding:0 .35rem;font-weight:700;font-size:.9rem}.units{color:var(--muted);font-size:.95rem}
.trust{list-style:none;padding:0;margin:.4rem 0 .75rem;display:flex;flex-wrap:wrap;gap:.2rem .9rem;font-size:.95rem}.trust li{display:flex;align-items:center;gap:.25rem}.trust svg{color:var(--primary);flex:none}
.about p{margin:0 0 .75rem}
.hero{background:var(--primary);color:#fff}.hero h2{font-size:1.3rem}ul.items{padding-left:1.2rem;margin:.25rem 0}ul.items li{margin:.3rem 0}
details{border-top:1px solid var(--line);padding:.6rem 0}summary{font-weight:600;cursor:pointer}.guarantee{border:2px dashed var(--primary);border-radius:12px;margin:1rem}
.cr-box{border-top:6px solid var(--primary)}fieldset{border:0;margin:0;padding:0}legend{font-weight:700;font-size:1.1rem;margin-bottom:.5rem}
.pack{display:flex;align-items:center;gap:.75rem;border:2px solid var(--line);border-radius:12px;padding:.75rem;margin:.5rem 0;cursor:pointer}
.pack:has(input:checked){border-color:var(--primary);background:var(--soft)}.pack input{width:1.3rem;height:1.3rem;accent-color:var(--primary)}
.pack .what{flex:1;font-weight:600}.pack .price{font-weight:700;font-size:1.1rem;text-align:right;display:block;margin:0}.pack s{display:block;color:var(--muted);font-weight:400;font-size:.9rem}
.badge{display:inline-block;background:var(--primary);color:#fff;border-radius:999px;padding:0 .6rem;font-size:.8rem;margin-left:.4rem}
label{display:block;font-weight:600;margin:.9rem 0 .25rem}input,select{width:100%;font:inherit;padding:.7rem .75rem;border:1px solid var(--line);border-radius:10px;background:#fff;color:var(--ink);min-height:2.9rem}
input:focus,select:focus{outline:3px solid color-mix(in srgb,var(--primary) 35%,transparent);border-color:var(--primary)}
[aria-invalid=true]{border-color:var(--err)}.cr-err{color:var(--err);font-size:.9rem;margin:.25rem 0 0}.cr-err:empty{display:none}
.cr-banner{background:#fdecec;color:var(--err);border-radius:10px;padding:.7rem .9rem;margin:.75rem 0}.cr-banner:empty{display:none}
.cb{position:relative}.cb-list{position:absolute;z-index:5;left:0;right:0;top:100%;margin:.25rem 0 0;padding:.25rem;list-style:none;background:#fff;border:1px solid var(--line);border-radius:10px;box-shadow:0 6px 18px #0002;max-height:15rem;overflow:auto}
.cb-list[hidden]{display:none}.cb-list li{padding:.6rem .65rem;border-radius:8px;cursor:pointer;min-height:2.75rem}.cb-list li small{display:block;color:var(--muted)}
.cb-list li[aria-selected=true]{background:var(--soft);outline:2px solid var(--primary)}.cb-list li.none{cursor:default;color:var(--muted)}
.total{display:flex;justify-content:space-between;font-size:1.1rem;margin:1rem 0 .5rem;font-weight:700}
button{width:100%;font:inherit;font-weight:700;font-size:1.1rem;padding:.95rem;border:0;border-radius:12px;background:var(--primary);color:#fff;cursor:pointer;min-height:3.2rem}
button[disabled]{opacity:.6}.cr-hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
a.cta{display:flex;align-items:center;justify-content:center;gap:.4rem;text-align:center;background:var(--primary);color:#fff;padding:.85rem;border-radius:12px;font-weight:700;font-size:1.1rem;text-decoration:none;min-height:3.1rem}
.bar{position:sticky;bottom:0;z-index:4;display:flex;align-items:center;gap:.75rem;padding:.5rem 1rem;background:#fff;border-top:1px solid var(--line);box-shadow:0 -4px 12px #0001}
.bar p{margin:0;line-height:1.2}.bar strong{display:block;font-size:1.1rem}.bar span{color:var(--muted);font-size:.85rem}.bar .cta{flex:1;padding:.6rem;min-height:2.9rem}.bar.away{visibility:hidden}
.done{text-align:center;padding:2rem 1rem 1rem}.done .number{font-size:2rem;font-weight:800;color:var(--primary);margin:0}.muted{color:var(--muted)}
.recap{padding-top:0}.recap h2{font-size:1.05rem;margin:1.1rem 0 .35rem}.recap p{margin:0}.steps{margin:0;padding-left:1.3rem}.steps li{margin:.3rem 0}.wa-cta{margin-top:1.25rem;background:#0b6b3a}
@media (min-width:48rem){body{padding:2rem 0}main{border-radius:16px;min-height:0;box-shadow:0 2px 12px #0001;overflow:clip}.buy img{border-radius:0}}`;
