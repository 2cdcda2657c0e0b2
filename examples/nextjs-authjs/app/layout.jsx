export const metadata = { title: 'Next.js + Auth.js + Tessera' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
