import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    extend: {
      colors: {
        // Blue 600/700: white text on them and they on white, slate-50 and slate-100 reach the
        // 4.5:1 of WCAG AA (the earlier #296EFF gave 4.4:1). Text in brand colour on the dark
        // backgrounds is lighter (app/tailwind.css).
        brand: { DEFAULT: "#2563eb", dark: "#1d4ed8" },
      },
      screens: { wide: "1280px" },
      keyframes: { fadein: { from: { opacity: "0" }, to: { opacity: "1" } } },
    },
  },
  plugins: [],
} satisfies Config;
