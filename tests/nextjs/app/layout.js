export default function RootLayout({ children }) {
  return (
    <html>
      <head>
        <link rel="icon" href="data:," />
      </head>
      <body>{children}</body>
    </html>
  );
}
