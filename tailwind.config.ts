import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: {
    extend: {
      colors: {
        brand: { DEFAULT: "#296EFF", dark: "#1f56c7" },
      },
      screens: { wide: "1280px" },
      keyframes: { fadein: { from: { opacity: "0" }, to: { opacity: "1" } } },
    },
  },
  plugins: [],
} satisfies Config;
