// The package ships its list without typings: the default export is an array of domain names.
declare module 'email-providers' {
  const domains: string[];
  export default domains;
}
