import { createContext, useContext } from 'react';

/** Asks the frame to re-read the organization (its name is in the top bar). */
const RefreshOrganization = createContext<() => void>(() => {});

export const RefreshOrganizationProvider = RefreshOrganization.Provider;

export const useRefreshOrganization = () => useContext(RefreshOrganization);
