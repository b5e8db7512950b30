"use client";
import { useEffect, useState } from "react";
import { probe } from "./probe.js";

export default function Page() {
  const [out, setOut] = useState("");
  useEffect(() => {
    const r = probe();
    window.__result = r;
    setOut(JSON.stringify(r));
  }, []);
  return <pre id="out">{out}</pre>;
}
