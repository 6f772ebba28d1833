/** The path of the browser: `CHROMIUM_PATH`, else the system's Chromium, installed first when possible. */
export declare const ensureChromium: () => string
