"""The browser: ``regle serve`` (a local web app on the standard library), and the drawing of
states as SVG and HTML that the app and the HTML rulebook share."""
