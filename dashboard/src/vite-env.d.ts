/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives, e.g. https://betty.example.com; unset means the page's own origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
