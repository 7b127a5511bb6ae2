// Opened as a file (file://), the browser runs none of Verity's modules or workers, so the page would stay blank:
// say how to serve the folder instead. Plain script, no module: it must run where modules do not.
if (location.protocol === 'file:') {
  document.addEventListener('DOMContentLoaded', function () {
    var main = document.createElement('main');
    main.id = 'no-server';
    main.style.cssText = 'font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem';
    var h = document.createElement('h1');
    h.textContent = 'Verity needs to be served, not opened as a file';
    var p = document.createElement('p');
    p.textContent =
      'Browsers do not run an app’s modules and workers from a file:// page. Serve this folder with any static web server, then open the address it prints. In this folder, one command:';
    var pre = document.createElement('pre');
    pre.textContent = 'python3 -m http.server 8000\n\nthen open http://localhost:8000/   (or: npx serve .)';
    var q = document.createElement('p');
    q.textContent = 'Your files still never leave your computer: Verity scores them in the browser. After the first visit it also works offline.';
    main.append(h, p, pre, q);
    document.body.replaceChildren(main);
  });
}
