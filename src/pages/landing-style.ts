// The landing page's stylesheet: inline in the page (no request before first paint on a slow
// network), allowed by its hash in the Content-Security-Policy. Mobile first, system fonts only.
export const LANDING_CSS = `:root{--primary:#0a7d4f;--ink:#1d2330;--muted:#5b6475;--line:#c9cfd9;--bg:#f6f7f9;--err:#a4161a}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
body.f-serif{font-family:Georgia,"Times New Roman",serif}body.f-rounded{font-family:ui-rounded,"SF Pro Rounded","Nunito",system-ui,sans-serif}body.f-mono{font-family:ui-monospace,Menlo,Consolas,monospace}
main{max-width:40rem;margin:0 auto;background:#fff;min-height:100vh}
header,section,.cr-box{padding:1.25rem 1rem}h1{font-size:1.6rem;line-height:1.2;margin:.25rem 0 .5rem}h2{font-size:1.25rem;margin:0 0 .5rem}
img{max-width:100%;height:auto;border-radius:10px;display:block}.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.5rem}
.hero{background:var(--primary);color:#fff}.hero h2{font-size:1.4rem}ul.items{padding-left:1.2rem;margin:.25rem 0}ul.items li{margin:.3rem 0}
details{border-top:1px solid var(--line);padding:.6rem 0}summary{font-weight:600;cursor:pointer}.guarantee{border:2px dashed var(--primary);border-radius:12px;margin:1rem}
.cr-box{border-top:6px solid var(--primary)}fieldset{border:0;margin:0;padding:0}legend{font-weight:700;font-size:1.1rem;margin-bottom:.5rem}
.pack{display:flex;align-items:center;gap:.75rem;border:2px solid var(--line);border-radius:12px;padding:.75rem;margin:.5rem 0;cursor:pointer}
.pack:has(input:checked){border-color:var(--primary);background:#f1faf5}.pack input{width:1.3rem;height:1.3rem;accent-color:var(--primary)}
.pack .what{flex:1;font-weight:600}.pack .price{font-weight:700;font-size:1.1rem;text-align:right}.pack s{display:block;color:var(--muted);font-weight:400;font-size:.9rem}
.badge{display:inline-block;background:var(--primary);color:#fff;border-radius:999px;padding:0 .6rem;font-size:.8rem;margin-left:.4rem}
label{display:block;font-weight:600;margin:.9rem 0 .25rem}input,select{width:100%;font:inherit;padding:.7rem .75rem;border:1px solid var(--line);border-radius:10px;background:#fff;color:var(--ink);min-height:2.9rem}
input:focus,select:focus{outline:3px solid color-mix(in srgb,var(--primary) 35%,transparent);border-color:var(--primary)}
[aria-invalid=true]{border-color:var(--err)}.cr-err{color:var(--err);font-size:.9rem;margin:.25rem 0 0}.cr-err:empty{display:none}
.cr-banner{background:#fdecec;color:var(--err);border-radius:10px;padding:.7rem .9rem;margin:.75rem 0}.cr-banner:empty{display:none}
.total{display:flex;justify-content:space-between;font-size:1.1rem;margin:1rem 0 .5rem;font-weight:700}
button{width:100%;font:inherit;font-weight:700;font-size:1.1rem;padding:.95rem;border:0;border-radius:12px;background:var(--primary);color:#fff;cursor:pointer;min-height:3.2rem}
button[disabled]{opacity:.6}.cr-hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
a.cta{display:block;text-align:center;background:var(--primary);color:#fff;padding:.9rem;border-radius:12px;font-weight:700;text-decoration:none}
.done{text-align:center;padding:2rem 1rem}.done .number{font-size:2rem;font-weight:800;color:var(--primary)}.muted{color:var(--muted)}
@media (min-width:48rem){body{padding:2rem 0}main{border-radius:16px;min-height:0;box-shadow:0 2px 12px #0001;overflow:hidden}}`;
