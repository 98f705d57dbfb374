/** The whole stylesheet, inlined in every page (no external assets). */
export const SITE_CSS = `
:root{--fg:#1b1f24;--muted:#5b6470;--bg:#fff;--line:#d8dde3;--accent:#0b5cad;--bar:#2f7d4f;--bar-bg:#e6ebef;--warn:#8a5a00;--bad:#a3262a;--code:#f4f6f8}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,summary:focus-visible,select:focus-visible,input:focus-visible,[tabindex]:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header.site{border-bottom:1px solid var(--line);padding:.5rem 1rem}
header.site .brand{font-weight:700;text-decoration:none;color:var(--fg);margin-right:1rem}
nav.site ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav.site a[aria-current=page]{font-weight:700;text-decoration:none}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.25rem;margin-top:1.75rem}h3{font-size:1.05rem}
p.lead{color:var(--muted);margin-top:0}
.table-wrap{overflow-x:auto;max-width:100%;border:1px solid var(--line);border-radius:4px}
table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:.35rem .55rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;white-space:nowrap}
thead th{white-space:normal;vertical-align:bottom;min-width:3.5rem}
td.num,th.num{text-align:right}
thead th{background:#f7f9fa;font-weight:600}
th a.sort,th button.sort{font:inherit;color:inherit;background:none;border:0;padding:0;cursor:pointer;text-decoration:underline dotted}
th[aria-sort=ascending] .sort::after{content:" \\25B2"}th[aria-sort=descending] .sort::after{content:" \\25BC"}
.bar{display:inline-block;vertical-align:middle;width:6rem;height:.7rem;background:var(--bar-bg);border-radius:2px;position:relative}
.bar>span{display:block;height:100%;background:var(--bar);border-radius:2px}
.bar.small{width:2.2rem;height:.55rem}
.bar.none{background:repeating-linear-gradient(135deg,#fff,#fff 3px,#d8dde3 3px,#d8dde3 5px);border:1px dashed var(--muted);color:var(--muted);font-size:.75rem;line-height:1;height:auto;width:auto;min-width:6rem;padding:.1rem .3rem;text-align:center}
.bar.none.small{min-width:2.2rem;font-size:.65rem;padding:.05rem .15rem}
.meter{display:inline-flex;align-items:center;gap:.15rem}.meter-value{font-size:.75rem;min-width:1.3rem;text-align:right}
.legend{font-size:.9rem;color:var(--muted);margin:.5rem 0}.legend a.term,a.term{text-decoration:underline dotted}
abbr[title]{text-decoration:underline dotted;cursor:help}
dl.glossary{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.3rem 1rem}dl.glossary dt{font-weight:600}dl.glossary dd{margin:0}dl.glossary dt:target,dl.glossary dt:target+dd{background:#fff6d6}
details.spec>summary{font-size:1.05rem}
@media (max-width:600px){dl.glossary{grid-template-columns:1fr}dl.glossary dd{margin-bottom:.4rem}}
.bar.reason{width:auto;min-width:8rem;max-width:11rem;white-space:normal;height:auto;padding:0 .4rem;font-size:.8rem;color:var(--warn);background:repeating-linear-gradient(135deg,#fbf3e2,#fbf3e2 6px,#f5e6c4 6px,#f5e6c4 12px)}
.terms{display:flex;gap:.35rem;align-items:center}
.muted{color:var(--muted)}
.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
.seal{word-break:break-all;white-space:normal}
pre{background:var(--code);padding:.75rem;overflow-x:auto;border-radius:4px;max-width:100%}
code{background:var(--code);padding:0 .2rem;border-radius:2px}:not(pre)>code{overflow-wrap:anywhere}pre code{background:none;padding:0}
details{border:1px solid var(--line);border-radius:4px;padding:.5rem .75rem;margin:.75rem 0}
summary{cursor:pointer;font-weight:600}
.box{border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:4px;padding:.75rem;margin:1rem 0;max-width:100%}
.status-anchored{color:var(--bar);font-weight:600}.status-pending{color:var(--warn);font-weight:600}
.hit{color:var(--bar);font-weight:600}.miss{color:var(--bad);font-weight:600}.void,.open{color:var(--muted)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
figure{margin:1rem 0}figure svg{max-width:100%;height:auto;display:block}figcaption{color:var(--muted);font-size:.9rem}
.pager{display:flex;gap:1rem;align-items:center;flex-wrap:wrap;margin:.75rem 0}
form.inline{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap}
.state{font-size:1.2rem;font-weight:700}
.mode-banner{padding:.6rem 1rem;border-bottom:1px solid var(--line);background:#fbf3e2;color:var(--fg)}.mode-banner.wind-down,.mode-banner.archived{background:#f6e3e3}.mode-banner p{margin:.2rem 0;overflow-wrap:anywhere}
footer.site{border-top:1px solid var(--line);color:var(--muted);font-size:.85rem;padding:1rem;text-align:center}
.prose{max-width:48rem}.prose p,.prose li{overflow-wrap:anywhere}.prose td code,.prose th code{overflow-wrap:normal}.prose table td,.prose table th{white-space:normal}
@media (max-width:600px){main{padding:.75rem}th,td{padding:.3rem .4rem}.bar{width:4rem}}
`;
