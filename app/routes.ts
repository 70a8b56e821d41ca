import { index, type RouteConfig, route } from '@react-router/dev/routes';

// The shop's French URLs, one route module each. Grouped by area.
export default [
  // Public site: marketing, information, blog, legal, contact
  index('routes/site/home.tsx'),
  route('services', 'routes/site/services.tsx'),
  // Every service id of app/domain/services.ts; /services/plaques-verre is an alias
  // (canonical: plaques-de-verre).
  route('services/:serviceId', 'routes/site/service.tsx'),
  route('boite-soovenirs', 'routes/site/boite-soovenirs.tsx'),
  route('faq', 'routes/site/faq.tsx'),
  // The URL keeps its accent; the form without it serves the same page (canonical: accented).
  // A site route given its own id keeps the folder as prefix: pages of routes/site are sent as
  // documents, decided by the id (app/domain/document-routes.ts).
  route('numérisation-essai-gratuit', 'routes/site/essai-gratuit.tsx', { id: 'routes/site/essai-gratuit' }),
  route('numerisation-essai-gratuit', 'routes/site/essai-gratuit.tsx', {
    id: 'routes/site/essai-gratuit-sans-accent',
  }),
  route('boutique', 'routes/site/boutique.tsx'),
  route('carte-cadeau', 'routes/shop/gift-card.tsx'),
  route('carte-cadeau/utiliser', 'routes/shop/gift-card-redeem.tsx'),
  route('services-entreprises', 'routes/site/services-entreprises.tsx'),
  route('blog', 'routes/site/blog.tsx'),
  route('blog/:slug', 'routes/site/blog-post.tsx'),
  route('contact', 'routes/site/contact.tsx'),
  // Pages written in content/pages/*.md: one module, one route each (the slug is the path).
  ...[
    'organisation-commande',
    'histoire-photographie',
    'guide-conservation',
    'numerisation-fonctionnement',
    'villes-du-loiret',
    'a-propos',
    'mentions-legales',
    'legal-notice',
    'cgv',
    'politique-de-confidentialite',
  ].map((slug) => route(slug, 'routes/site/content-page.tsx', { id: `routes/site/page-${slug}` })),
  route('sitemap.xml', 'routes/api/sitemap-xml.ts'),
  route('robots.txt', 'routes/api/robots-txt.ts'),
  route('api/content/invalidate', 'routes/api/content-invalidate.ts'),

  // Accounts: sign-in, registration, first administrator
  route('login', 'routes/auth/login.tsx'),
  route('register', 'routes/auth/register.tsx'),
  route('logout', 'routes/auth/logout.tsx'),
  route('setup-super-admin', 'routes/auth/setup-super-admin.tsx'),
  // A staff invitation's link (« Équipe »): the invited person chooses name and password.
  route('invitation/:token', 'routes/auth/invitation.tsx'),
  // Two-factor sign-in's second step: « Code de vérification ».
  route('connexion/verification', 'routes/auth/two-factor.tsx'),
  // Customer account (the order confirmation and the invoice view are the account's views of an order)
  route('profile', 'routes/account/profile.tsx'),
  route('retractation/:orderId', 'routes/account/withdrawal.tsx'),
  route('confirmation', 'routes/shop/confirmation.tsx'),
  route('facture/:orderId', 'routes/shop/invoice.tsx'),
  // A reception supplement: what was counted beyond the order, to pay or decline.
  route('supplement/:id', 'routes/shop/supplement.tsx'),
  route('supplement/:id/facture', 'routes/shop/supplement-invoice.ts'),
  // A refund by transfer: the customer gives the IBAN to pay it into (decision 025).
  route('remboursement/:orderId', 'routes/shop/refund-iban.tsx'),
  // The prepaid sending label: GET downloads it, POST makes it when Colissimo failed at payment.
  route('commande/:orderId/etiquette.pdf', 'routes/shop/shipping-label.ts'),
  // The customer's files (decision 011): the gallery, each original, its thumbnail and preview, the ZIP.
  route('commande/:orderId/fichiers', 'routes/shop/files.tsx'),
  route('commande/:orderId/copies', 'routes/shop/extra-copies.tsx'),
  route('commande/:orderId/fichiers.zip', 'routes/shop/files-zip.ts'),
  route('commande/:orderId/fichiers/:fileId', 'routes/shop/files-original.ts'),
  route('commande/:orderId/fichiers/:fileId/miniature.jpg', 'routes/shop/files-preview.ts', { id: 'files-thumbnail' }),
  route('commande/:orderId/fichiers/:fileId/apercu.jpg', 'routes/shop/files-preview.ts', { id: 'files-preview' }),
  // « Partager avec la famille »: the customer's shares, and what a relative opens without an account.
  route('commande/:orderId/partages', 'routes/shop/shares.tsx'),
  route('partage/:token', 'routes/share/share.tsx'),
  route('partage/:token/copie', 'routes/share/share-copy.tsx'),
  route('partage/:token/fichiers.zip', 'routes/share/share-zip.ts'),
  route('partage/:token/fichiers/:fileId', 'routes/share/share-original.ts'),
  route('partage/:token/fichiers/:fileId/miniature.jpg', 'routes/share/share-preview.ts', { id: 'share-thumbnail' }),
  route('partage/:token/fichiers/:fileId/apercu.jpg', 'routes/share/share-preview.ts', { id: 'share-preview' }),
  // The video the gallery plays (master or rendition, Range) and its chapters.
  route('commande/:orderId/fichiers/:fileId/video.mp4', 'routes/shop/files-video.ts', { id: 'files-video' }),
  route('commande/:orderId/fichiers/:fileId/chapitres.vtt', 'routes/shop/files-video.ts', { id: 'files-chapters' }),
  // « Preview and keep »: the customer's review of the scans before delivery, its thumbnails.
  route('commande/:orderId/selection', 'routes/shop/selection.tsx'),
  route('commande/:orderId/selection/:fileId/miniature.jpg', 'routes/shop/selection-thumbnail.ts'),
  // Shop: configurator, quotes, checkout, confirmation, invoices, payment pages
  // The gateways' pages: the sandbox's own card form, the hand-over to Monetico.
  route('paiement/sandbox/:sessionId', 'routes/shop/sandbox-payment.tsx'),
  route('paiement/monetico/:reference', 'routes/shop/monetico-payment.tsx'),
  route('configurateur', 'routes/shop/configurator.tsx'),
  route('checkout', 'routes/shop/checkout.tsx'),
  route('mes-devis', 'routes/shop/quotes.tsx'),
  route('mes-devis/:quoteId', 'routes/shop/quote.tsx'),
  route('devis/:token', 'routes/shop/quote-link.tsx'),
  // The active price list and its version, for live prices on open pages.
  route('api/price-list', 'routes/api/price-list.ts'),

  // Back office
  // The dashboard and its six tabs (Commandes is /admin itself); every loader and action checks the admin.
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/orders.tsx'),
    route('clients', 'routes/admin/customers.tsx'),
    route('atelier', 'routes/admin/workshop.tsx'),
    route('tarifs', 'routes/admin/pricing.tsx'),
    route('rapports', 'routes/admin/reports.tsx'),
    route('comptabilite', 'routes/admin/accounting.tsx'),
    // The accounting exports (FEC, journal in entries, Chorus Pro) and the accounts they use.
    route('exports-comptables', 'routes/admin/accounting-exports.tsx'),
    // E-reporting of consumer sales and payments (decision 051): transmissions and the VAT regime.
    route('e-reporting', 'routes/admin/e-reporting.tsx'),
    // The payment journal (decision 049): its head, closures, public key and signed archives.
    route('journal-paiements', 'routes/admin/payment-journal.tsx'),
    // Gift cards (decision 037): search, ledger, resend, extend, cancel and refund.
    route('cartes-cadeaux', 'routes/admin/gift-cards.tsx'),
    // Promotion codes (decision 038): the list with uses and revenue, create, pause, resume.
    route('codes-promo', 'routes/admin/promotions.tsx'),
    route('tests', 'routes/admin/tests.tsx'),
    // Staff and roles: the team (administrators), each one's two-factor sign-in.
    route('equipe', 'routes/admin/team.tsx'),
    route('securite', 'routes/admin/security.tsx'),
    route('journal', 'routes/admin/journal.tsx'),
    // The e-mails' DKIM signing key and the DNS record to publish (a setting).
    route('signature-email', 'routes/admin/email-signing.tsx'),
    // The plateforme agréée: its addresses and credentials, « Tester la connexion » (a setting).
    route('plateforme-agreee', 'routes/admin/e-invoicing.tsx'),
  ]),
  // Its resource routes: dialogs' data and actions, search, notifications (and their event stream), exports.
  route('admin/api/recherche', 'routes/admin/api/search.ts'),
  route('admin/api/notifications', 'routes/admin/api/notifications.ts'),
  route('admin/api/notifications/flux', 'routes/admin/api/notifications-stream.ts'),
  route('admin/api/rapports', 'routes/admin/api/reports.ts'),
  route('admin/api/emails', 'routes/admin/api/emails.ts'),
  route('admin/api/emails/:id', 'routes/admin/api/email-state.ts'),
  route('admin/api/configuration-email', 'routes/admin/api/email-config.ts'),
  route('admin/api/configuration-paiement', 'routes/admin/api/payment-config.ts'),
  route('admin/api/paiements', 'routes/admin/api/payments.ts'),
  route('admin/api/coliship', 'routes/admin/api/coliship.ts'),
  // The key of La Poste's tracking service, in the same dialog.
  route('admin/api/suivi-colis', 'routes/admin/api/tracking-key.ts'),
  // « Colis reçu »: the reception form and its photos.
  route('admin/api/reception/:orderId', 'routes/admin/api/reception.ts'),
  route('admin/api/reception-photo/:photoId', 'routes/admin/api/reception-photo.ts'),
  route('admin/api/expedition', 'routes/admin/api/shipping.ts'),
  route('admin/api/commandes/:orderId/fichiers', 'routes/admin/api/order-files.ts'),
  route('admin/api/commandes/:orderId/message', 'routes/admin/api/order-message.ts'),
  route('admin/api/configuration-fichiers', 'routes/admin/api/files-config.ts'),
  route('admin/api/configuration-facturation', 'routes/admin/api/invoicing-config.ts'),
  route('admin/exports/:dataset', 'routes/admin/exports.ts'),
  // The FEC, the journal in entries, the Chorus Pro ZIP of a period (?fichier=…&periode=…).
  route('admin/export-comptable', 'routes/admin/accounting-export.ts'),
  route('admin/e-reporting/:id/fichier', 'routes/admin/e-reporting-file.ts'),
  route('admin/journal-paiements/archive', 'routes/admin/payment-journal-archive.ts'),

  // Resource routes (API)
  route('api/auth/*', 'routes/api/auth.ts'),
  route('api/send-email', 'routes/api/send-email.ts'),
  route('api/create-checkout', 'routes/api/create-checkout.ts'),
  route('api/update-guest-order', 'routes/api/update-guest-order.ts'),
  route('api/webhooks/stripe', 'routes/api/webhooks/stripe.ts'),
  route('api/webhooks/monetico', 'routes/api/webhooks/monetico.ts'),
  route('api/webhooks/sandbox', 'routes/api/webhooks/sandbox.ts'),
  route('facture/:orderId/pdf', 'routes/api/invoice-pdf.ts'),
  // The originals' journey: the order slip to put in the parcel, the workshop's job sheet.
  route('commande/:orderId/bordereau.pdf', 'routes/shop/order-slip-pdf.ts'),
  // A gift card the buyer prints (decision 037), downloaded again from the account or the confirmation.
  route('carte-cadeau/:orderId/carte.pdf', 'routes/shop/gift-card-pdf.ts'),
  route('admin/commandes/:orderId/fiche-atelier.pdf', 'routes/admin/job-sheet-pdf.ts'),
  // Bulk work on the selected orders: status or stage change, their job sheets in one PDF.
  route('admin/api/commandes/lot', 'routes/admin/api/orders-bulk.ts'),
  route('admin/api/filtres-commandes', 'routes/admin/api/saved-filters.ts'),
  route('admin/commandes/fiches-atelier.pdf', 'routes/admin/job-sheets-pdf.ts'),

  route('*', 'routes/site/not-found.tsx'),
] satisfies RouteConfig;
